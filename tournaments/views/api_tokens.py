"""The person's API tokens (docs/api.md): made (shown once), listed with their last use, revoked.
Only their own: another person's token is 404."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import EfudaError

from ..forms.api import ApiTokenForm
from ..forms.entry import add_efuda_error
from ..models import ApiToken
from ..selectors.api import api_tokens
from ..services.api import token_create, token_revoke


@login_required
@require_http_methods(["GET", "POST"])
def api_tokens_view(request):
    made = None
    form = ApiTokenForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            _token, made = token_create(user=request.user, name=form.cleaned_data["name"],
                                        scope=form.cleaned_data["scope"])  # fmt: skip
        except EfudaError as err:
            add_efuda_error(form, err)
        else:
            form = ApiTokenForm()
    response = render(request, "tournaments/accounts/api_tokens.html", {
        "form": form, "made": made, "tokens": api_tokens(user=request.user),
    })  # fmt: skip
    add_never_cache_headers(response)  # the token shown once is never kept by a browser
    return response


@login_required
@require_POST
def api_token_revoke_view(request, pk: int):
    token_revoke(token=get_object_or_404(ApiToken, pk=pk, user=request.user))
    return redirect("api_tokens")
