"""View decorators for the live-play gate.

Usage in a live-play view that starts or joins a NEW live game::

    from accounts.decorators import live_access_required

    @live_access_required
    def create_friend_room(request): ...

* Signed-out visitors are redirected to the login page (``?next=`` back here); for htmx
  requests the redirect is an ``HX-Redirect`` header so the whole page navigates.
* Signed-in players without live access get the "needs a subscription" page with
  **HTTP 402** and a link to the plans page. For htmx requests they get a small fragment
  (``templates/accounts/_live_access_denied.html``) with **HTTP 200** — htmx swaps only 2xx
  responses by default — plus an ``HX-Trigger: live-access-denied`` event carrying the
  message, so the page may also show it its own way.

Websocket consumers can't use a decorator: they call
:func:`accounts.selectors.has_live_access` off their event loop and
:func:`~accounts.selectors.live_access_denied_message`.
"""
import functools
import json

from asgiref.sync import iscoroutinefunction, sync_to_async
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.urls import reverse

from accounts.selectors import (
    has_live_access,
    live_access_action,
    live_access_denied_message,
    live_access_denied_reason,
    pricing_url,
    subscription_for,
)

DENIED_STATUS = 402


def _is_htmx(request) -> bool:
    htmx = getattr(request, "htmx", None)
    if htmx is not None:
        return bool(htmx)
    return request.headers.get("HX-Request") == "true"


def live_access_denied_response(request) -> HttpResponse:
    """The response a live-play view gives a player without live access."""
    message = live_access_denied_message(request.user)
    action_url, action_label = live_access_action(request.user)
    context = {
        "message": message,
        "reason": live_access_denied_reason(request.user)
        if subscription_for(request.user) is not None
        else "Friend rooms and matchmaking are part of the live-play subscription.",
        "pricing_url": pricing_url(),
        "action_url": action_url,
        "action_label": action_label,
    }
    if _is_htmx(request):
        response = HttpResponse(
            render_to_string("accounts/_live_access_denied.html", context, request=request)
        )
        response["HX-Trigger"] = json.dumps(
            {"live-access-denied": {"message": message, "pricing_url": pricing_url()}}
        )
        return response
    return HttpResponse(
        render_to_string("accounts/live_access_denied.html", context, request=request),
        status=DENIED_STATUS,
    )


def _refusal(request) -> HttpResponse | None:
    """The response that stops ``request`` at the gate, or None to let it through."""
    if not request.user.is_authenticated:
        response = redirect_to_login(request.get_full_path())
        if _is_htmx(request):
            redirect = HttpResponse(status=204)
            redirect["HX-Redirect"] = response["Location"]
            return redirect
        return response
    if not has_live_access(request.user):
        return live_access_denied_response(request)
    return None


def live_access_required(view):
    """Let the view run only for signed-in players with live access (see module docstring).

    Works on sync and async views.
    """
    if iscoroutinefunction(view):

        @functools.wraps(view)
        async def async_wrapper(request, *args, **kwargs):
            refusal = await sync_to_async(_refusal)(request)
            if refusal is not None:
                return refusal
            return await view(request, *args, **kwargs)

        return async_wrapper

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        return _refusal(request) or view(request, *args, **kwargs)

    return wrapper


def account_required(view):
    """Pages of an account (profile, payments): a signed-out visitor goes to the login page, a
    guest (who plays without an account) to sign-up, told why."""
    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if request.user.is_guest:
            messages.info(request, "You are playing as a guest. Sign up free to have an account: your games come with you.")
            return redirect(reverse("accounts:signup"))
        return view(request, *args, **kwargs)

    return wrapped
