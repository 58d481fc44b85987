"""Glue between django-allauth, django-axes and the club's invitations.

- ``axes_username``: one user name for axes whatever the login form was given — the user name
  in any case (``race12``, ``Race12``: the login compares them without case) or the e-mail
  address — so every spelling counts towards the same lock (user name + client address).
- ``AccountAdapter``: after login, sign-up or e-mail confirmation, a pending invitation (kept in
  the session by the invitation page) takes the person back to it. The confirmation mail's link
  carries the invitation too (``?next=/invite/<token>/``), so it survives the mail being opened
  in another browser or on another phone, where the session knows nothing of it. Mails greet
  from efuda, not from the server's host and port, and name the club of the invitation.
- ``EmailVerificationStage``: accounts made outside sign-up (by an administrator with
  ``createsuperuser`` or the admin, the demo users) have no e-mail address on allauth's record;
  they log in as before rather than being locked out. Everyone who signs up (and so has an
  address on record) verifies it before the first login. A sign-up with an address that already
  has an account comes here with no user (allauth's enumeration prevention): it gets the same
  "check your mail" page as a new sign-up, and the address's owner a "you already have an
  account" mail (``AccountAdapter.send_account_already_exists_mail``, which also does the
  password hashing a new account costs, so the answer takes as long).
"""

import secrets
from urllib.parse import urlencode

from allauth.account import stages
from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.urls import reverse

from .client_ip import client_address
from .selectors.accounts import invitation_by_token

SITE_NAME = "efuda 絵札"

INVITATION_SESSION_KEY = "efuda_invitation"


def axes_username(request, credentials=None) -> str | None:
    """The account a login attempt is for, spelled one way: its stored user name when there is
    one (found by user name in any case, or by e-mail address), otherwise what was typed in
    lower case. So ``race12``, ``Race12`` and ``RACE12`` are one lock, not 2^n."""
    credentials = credentials or {}
    data = getattr(request, "POST", None) or {}
    username = credentials.get("username")
    email = credentials.get("email")
    if username is None and email is None:
        username = data.get("login") or data.get("username")
        if username and "@" in username:
            email, username = username, None
    users = get_user_model().objects
    if email:
        found = (
            users.filter(emailaddress__email__iexact=email)
            .values_list("username", flat=True)
            .first()
        )
        return found or email.lower()
    if not username:
        return username
    username = str(username).strip()
    found = users.filter(username=username).values_list("username", flat=True).first() or (
        users.filter(username__iexact=username)
        .order_by("pk")
        .values_list("username", flat=True)
        .first()
    )
    return found or username.lower()


def _pending_invitation(request):
    token = request.session.get(INVITATION_SESSION_KEY) if hasattr(request, "session") else None
    if not token:
        return None
    return invitation_by_token(token)


def pending_invitation_url(request) -> str | None:
    token = request.session.get(INVITATION_SESSION_KEY) if hasattr(request, "session") else None
    if not token:
        return None
    return reverse("invitation_open", args=[token])


class AccountAdapter(DefaultAccountAdapter):
    def get_client_ip(self, request):
        """The address allauth's rate limits count by: the same one axes and the PIN throttle
        use (forwarding headers believed only from TRUSTED_PROXIES: client_ip.py)."""
        return client_address(request) or super().get_client_ip(request)

    def send_account_already_exists_mail(self, email: str) -> None:
        """A sign-up with a known address: the mail to its owner, and the work a new account
        would have cost (hashing its password), so the two answers cannot be told apart by
        how long they take."""
        make_password(secrets.token_urlsafe(16))
        super().send_account_already_exists_mail(email)

    def format_email_subject(self, subject: str) -> str:
        return f"[{SITE_NAME}] {subject}"

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        """Every account mail knows the site's name and, when the person came through an
        invitation, the club it is for (the templates in templates/account/email/ say so)."""
        context = {"site_name": SITE_NAME, **context}
        invitation = _pending_invitation(getattr(self, "request", None))
        if invitation is not None:
            context.setdefault("club_name", invitation.club.name)
        super().send_mail(template_prefix, email, context)

    def get_email_confirmation_url(self, request, emailconfirmation):
        """The confirmation link takes a pending invitation along: opened in another browser,
        confirming leads to the invitation, not to the site's front page."""
        url = super().get_email_confirmation_url(request, emailconfirmation)
        invitation = pending_invitation_url(request) if request is not None else None
        if invitation:
            url += ("&" if "?" in url else "?") + urlencode({"next": invitation})
        return url

    def get_login_redirect_url(self, request):
        return pending_invitation_url(request) or super().get_login_redirect_url(request)

    def get_signup_redirect_url(self, request):
        return pending_invitation_url(request) or super().get_signup_redirect_url(request)

    def get_email_verification_redirect_url(self, email_address):
        request = self.request
        return pending_invitation_url(request) or super().get_email_verification_redirect_url(
            email_address
        )

    def get_login_stages(self):
        return [
            "tournaments.accounts.EmailVerificationStage"
            if path == "allauth.account.stages.EmailVerificationStage"
            else path
            for path in super().get_login_stages()
        ]


class EmailVerificationStage(stages.EmailVerificationStage):
    def handle(self):
        user = self.login.user
        if user is not None and not EmailAddress.objects.filter(user_id=user.pk).exists():
            return None, True  # an account from before sign-up: nothing to verify
        # A user (verify their address), or none: a sign-up with a known address, which
        # allauth answers like a new one (the "already have an account" mail, the same page).
        return super().handle()
