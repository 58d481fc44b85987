"""Glue between django-allauth, django-axes and the club's invitations.

- ``axes_username``: one user name for axes whether the login form was given a user name or an
  e-mail address, so both spellings count towards the same lock (user name + address).
- ``AccountAdapter``: after login, sign-up or e-mail confirmation, a pending invitation (kept in
  the session by the invitation page) takes the person back to it.
- ``EmailVerificationStage``: accounts made outside sign-up (by an administrator with
  ``createsuperuser`` or the admin, the demo users) have no e-mail address on allauth's record;
  they log in as before rather than being locked out. Everyone who signs up (and so has an
  address on record) verifies it before the first login.
"""

from allauth.account import stages
from allauth.account.adapter import DefaultAccountAdapter
from django.urls import reverse

INVITATION_SESSION_KEY = "efuda_invitation"


def axes_username(request, credentials=None) -> str | None:
    credentials = credentials or {}
    data = getattr(request, "POST", None) or {}
    username = credentials.get("username")
    email = credentials.get("email")
    if username is None and email is None:
        username = data.get("login") or data.get("username")
        if username and "@" in username:
            email, username = username, None
    if email:
        from django.contrib.auth import get_user_model

        found = (
            get_user_model()
            .objects.filter(emailaddress__email__iexact=email)
            .values_list("username", flat=True)
            .first()
        )
        return found or email.lower()
    return username


def pending_invitation_url(request) -> str | None:
    token = request.session.get(INVITATION_SESSION_KEY) if hasattr(request, "session") else None
    if not token:
        return None
    return reverse("invitation_open", args=[token])


class AccountAdapter(DefaultAccountAdapter):
    def get_client_ip(self, request):
        """The address allauth's rate limits count by: the same one axes uses (behind the proxy,
        X-Real-IP; see config/settings/production.py)."""
        from django.conf import settings

        address_of = getattr(settings, "AXES_CLIENT_IP_CALLABLE", None)
        if callable(address_of):
            address = address_of(request)
            if address:
                return address
        return super().get_client_ip(request)

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
        from allauth.account.models import EmailAddress

        user = self.login.user
        if not EmailAddress.objects.filter(user_id=user.pk).exists():
            return None, True  # an account from before sign-up: nothing to verify
        return super().handle()
