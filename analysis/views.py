"""Asking for the analysis of your seat of a finished game, and its panel on the replay."""
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from analysis import selectors, services
from games.models import Table
from games.table.protocol import whole_number


def _finished_seat(request, table_id: int):
    table = get_object_or_404(Table, pk=table_id)
    seat = table.seats.filter(user=request.user).first()
    if seat is None:
        raise Http404("No such table.")
    return table, seat


def _ply(request, table) -> int:
    ply = whole_number(request.GET.get("ply", request.POST.get("ply", "")))
    return table.ply if ply is None else min(ply, table.ply)


@require_POST
@login_required
def request_analysis(request, table_id: int):
    """Queue the analysis of your seat (the panel then shows its progress)."""
    table, seat = _finished_seat(request, table_id)
    ply = _ply(request, table)
    status = 200
    refused = None
    if table.status != Table.Status.FINISHED or not table.has_game:
        refused, status = "Only a finished game can be analysed.", 409
    else:
        try:
            services.request_analysis(table, seat.number, request.user)
        except services.DailyLimitReached as limit:
            retry_at = limit.retry_at
            hours = max(1, round((retry_at - timezone.now()).total_seconds() / 3600))
            refused = (f"You have asked for {settings.ANALYSES_PER_DAY} analyses in the last 24 hours, "
                       f"the most a day. Try again in about {hours} hour{'s' if hours != 1 else ''}.")
            status = 429
    if not request.htmx and status == 200:
        return redirect(reverse("solo:replay", args=[table.pk]) + f"?ply={ply}")
    context = selectors.panel_context(table, seat.number, ply, request.user)
    context["refused"] = refused
    context["verdict_out_of_band"] = True
    response = render(request, "analysis/_panel.html", context, status=status)
    if status == 429:
        response["Retry-After"] = str(max(1, int((retry_at - timezone.now()).total_seconds())))
    return response


@login_required
def panel(request, table_id: int):
    """The analysis panel alone (polled while the analysis runs)."""
    table, seat = _finished_seat(request, table_id)
    context = selectors.panel_context(table, seat.number, _ply(request, table), request.user)
    context["verdict_out_of_band"] = True  # the verdict at this move comes too, out of band
    response = render(request, "analysis/_panel.html", context)
    response["Cache-Control"] = "no-store"
    return response
