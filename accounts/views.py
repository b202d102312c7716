import json
import logging

import stripe
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.messages.views import SuccessMessageMixin
from django.http import HttpResponseRedirect, JsonResponse
from django.shortcuts import redirect, render, resolve_url
from django.urls import reverse, reverse_lazy
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from accounts import billing, guests, limits, selectors, services
from accounts.decorators import account_required
from accounts.forms import ProfileForm, SignUpForm

log = logging.getLogger(__name__)


def _safe_next(request) -> str:
    """The ``next`` address asked for when it is one of this site's, else "". Redirect to it
    with HttpResponseRedirect: ``redirect()`` would take a bare word ("profile") for the name
    of a URL pattern and fail when there is none."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


# --- sign-up, log in, passwords ----------------------------------------------------------


def signup(request):
    """Sign up; a guest who signs up becomes the account, with the games they played."""
    guest = request.user if request.user.is_authenticated and request.user.is_guest else None
    if request.user.is_authenticated and guest is None:
        return redirect(settings.LOGIN_REDIRECT_URL)
    form = SignUpForm(request.POST or None, instance=guest)
    if request.method == "POST" and form.is_valid():
        user = form.save(commit=False)
        user.is_guest = False
        user.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        kept = " Your games are kept in it." if guest is not None else ""
        messages.success(request, f"Welcome, {user.public_name}! Your account is ready.{kept}")
        return HttpResponseRedirect(_safe_next(request) or resolve_url(settings.LOGIN_REDIRECT_URL))
    return render(request, "accounts/signup.html", {"form": form, "next": _safe_next(request)})


class LoginView(auth_views.LoginView):
    """Log in. A guest may log in too: their games then go to the account."""

    template_name = "accounts/login.html"

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not request.user.is_guest:
            return HttpResponseRedirect(self.get_success_url())
        if request.method == "POST" and (refused := limits.login_refused(request)):
            return limits.too_many(request, refused)
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form):
        guest = self.request.user if self.request.user.is_authenticated else None
        response = super().form_valid(form)
        guests.claim_guest(guest, form.get_user())
        return response


def locked_out(request, original_response=None, credentials=None):
    """django-axes' answer to a login while the account is locked out for this client (too
    many failures from here): the login form again, saying when to try again (HTTP 429)."""
    minutes = round(settings.AXES_COOLOFF_TIME.total_seconds() / 60)
    until = timezone.localtime(timezone.now() + settings.AXES_COOLOFF_TIME)
    form = auth_views.AuthenticationForm(request, initial={"username": request.POST.get("username", "")[:150]})
    message = (
        f"Too many failed logins. For your safety, logging in is paused for {minutes} minutes: "
        f"try again after {until:%H:%M} ({until:%Z}), or reset your password."
    )
    return render(
        request, "accounts/login.html", {"form": form, "next": _safe_next(request), "locked_out": message}, status=429
    )


class PasswordChangeView(SuccessMessageMixin, auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:profile")
    success_message = "Your password was changed."


class PasswordResetView(auth_views.PasswordResetView):
    """Asks for a reset link. Too many requests from one client are refused (429); beyond the
    e-mails one address may receive, nothing is sent and the page answers as for any address
    (``accounts.limits``)."""

    template_name = "accounts/password_reset.html"
    email_template_name = "accounts/password_reset_email.txt"
    subject_template_name = "accounts/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form):
        refused, send = limits.ask_password_reset(self.request, form.cleaned_data["email"])
        if refused:
            return limits.too_many(self.request, refused)
        if not send:
            log.info("password_reset_not_sent reason=limit")
            return HttpResponseRedirect(self.get_success_url())
        return super().form_valid(form)


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_done.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "accounts/password_reset_complete.html"


# --- profile and plans -------------------------------------------------------------------


@account_required
def profile(request):
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST":
        if form.is_valid():
            services.update_profile(
                request.user,
                display_name=form.cleaned_data["display_name"],
                email=form.cleaned_data["email"],
            )
            messages.success(request, "Your profile was saved.")
            return redirect("accounts:profile")
        # Keep the header showing the saved name, not the rejected one.
        request.user.refresh_from_db(fields=["display_name", "email"])
    if request.GET.get("checkout") == "success":
        messages.info(
            request,
            "Thanks! Live play opens as soon as the payment provider confirms your payment "
            "(usually a few seconds — reload this page).",
        )
    return render(
        request,
        "accounts/profile.html",
        {
            "form": form,
            "summary": selectors.subscription_summary(request.user),
            "payments_configured": selectors.payments_configured(),
        },
    )


def _pricing_context(request, **extra):
    context = {
        "offer": selectors.checkout_offer(request.user),
        "summary": selectors.subscription_summary(request.user)
        if request.user.is_authenticated
        else None,
        "not_configured_message": billing.PaymentsNotConfigured.message,
    }
    context.update(extra)
    return context


def pricing(request):
    if request.GET.get("checkout") == "canceled":
        messages.info(request, "Checkout canceled; nothing was charged.")
    return render(request, "accounts/pricing.html", _pricing_context(request))


@require_POST
@account_required
def checkout(request):
    """Send the player to the payment provider's checkout page."""
    offer = selectors.checkout_offer(request.user)
    if offer == "manage":
        summary = selectors.subscription_summary(request.user)
        messages.info(request, f"You already have live play: {summary['headline']}.")
        return redirect("accounts:profile")
    if offer == "update_payment":
        messages.info(
            request,
            "Your subscription is past due: update your payment instead of buying a second plan.",
        )
        return redirect("accounts:profile")
    try:
        url = billing.start_checkout(
            request.user,
            success_url=request.build_absolute_uri(reverse("accounts:profile")) + "?checkout=success",
            cancel_url=request.build_absolute_uri(reverse("accounts:pricing")) + "?checkout=canceled",
        )
    except billing.PaymentsNotConfigured as error:
        return render(
            request, "accounts/pricing.html", _pricing_context(request, error=str(error)), status=503
        )
    except billing.PaymentProviderError as error:
        return render(
            request, "accounts/pricing.html", _pricing_context(request, error=str(error)), status=502
        )
    return redirect(url, permanent=False)


@require_POST
@account_required
def billing_portal(request):
    """Send the player to the payment provider's page to update their card or cancel."""
    try:
        url = billing.start_billing_portal(
            request.user, return_url=request.build_absolute_uri(reverse("accounts:profile"))
        )
    except (billing.PaymentsNotConfigured, billing.PaymentProviderError) as error:
        messages.error(request, str(error))
        return redirect("accounts:profile")
    return redirect(url, permanent=False)


# --- payment provider webhook ------------------------------------------------------------


@csrf_exempt
@require_POST
def stripe_webhook(request):
    """Stripe calls this with signed events; see ``billing.apply_stripe_event``."""
    secret = settings.STRIPE_WEBHOOK_SECRET
    if not secret:
        return JsonResponse(
            {"error": "Stripe webhooks are not configured on this site (STRIPE_WEBHOOK_SECRET is empty)."},
            status=503,
        )
    payload = request.body.decode("utf-8", "replace")
    try:
        stripe.WebhookSignature.verify_header(
            payload, request.headers.get("Stripe-Signature"), secret, tolerance=stripe.Webhook.DEFAULT_TOLERANCE
        )
    except stripe.SignatureVerificationError as error:
        log.warning("stripe webhook with a bad signature: %s", error)
        return JsonResponse({"error": "Invalid Stripe-Signature header."}, status=400)
    try:
        event = json.loads(payload)
    except (ValueError, RecursionError):
        return JsonResponse({"error": "The body is not a Stripe event."}, status=400)
    try:
        outcome = billing.apply_stripe_event(event)
    except billing.MalformedEvent as problem:
        return JsonResponse({"error": str(problem)}, status=400)
    return JsonResponse({"received": True, "outcome": outcome})
