"""Asking for an analysis and running it. The task (analysis.tasks) calls :func:`run`."""
from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from analysis.models import Analysis
from games import storage
from games.bots import analysis as search
from games.models import Table
from hearts_site import taskrunner

log = logging.getLogger(__name__)


class DailyLimitReached(Exception):
    """The person has asked for ``settings.ANALYSES_PER_DAY`` analyses in the last 24 hours."""

    def __init__(self, retry_at):
        super().__init__("daily analysis limit reached")
        self.retry_at = retry_at


def analyses_left_today(user) -> int:
    return max(0, settings.ANALYSES_PER_DAY - _recent(user).count())


def _recent(user):
    return Analysis.objects.filter(requested_by=user, created_at__gte=timezone.now() - timedelta(days=1))


def request_analysis(table: Table, seat: int, user) -> Analysis:
    """The analysis of ``seat`` of the finished game at ``table``, asked for by ``user`` (who
    sits there): the stored one if any (a failed one starts again), else a new one, queued —
    counted against the daily limit (:class:`DailyLimitReached`)."""
    existing = Analysis.objects.filter(table=table, seat=seat).first()
    if existing is not None and existing.status != Analysis.Status.FAILED:
        return existing
    with transaction.atomic():
        if existing is None:
            recent = list(_recent(user).order_by("created_at").values_list("created_at", flat=True))
            if len(recent) >= settings.ANALYSES_PER_DAY:
                raise DailyLimitReached(recent[0] + timedelta(days=1))
            try:
                with transaction.atomic():
                    existing = Analysis.objects.create(
                        table=table, seat=seat, requested_by=user, effort=settings.ANALYSIS_EFFORT)
            except IntegrityError:  # asked twice at once: the other request made it
                return Analysis.objects.get(table=table, seat=seat)
        else:
            existing.status = Analysis.Status.QUEUED
            existing.done = existing.total = 0
            existing.decisions, existing.summary, existing.error = [], {}, ""
            existing.save()
        pk = existing.pk
        transaction.on_commit(lambda: taskrunner.schedule("analysis.run", pk, queue=settings.ANALYSIS_QUEUE))
    return existing


def run(analysis_id: int) -> int:
    """Analyse the game, saving each decision's verdict as it comes (the page shows the
    progress). Returns the number of decisions analysed."""
    analysis = Analysis.objects.select_related("table").filter(pk=analysis_id).first()
    if analysis is None or analysis.status == Analysis.Status.DONE:
        return 0
    rows = Analysis.objects.filter(pk=analysis_id)
    state = storage.saved_game(analysis.table)
    seat = analysis.seat
    try:
        choices = list(search.choices_of(state, seat))
        rows.update(status=Analysis.Status.RUNNING, total=len(choices), done=0, decisions=[])
        decisions = []
        for ply, view, action in choices:
            seed = search.analysis_seed(state["seed"], ply, seat)
            decision = search.analyse(view, action, seed, analysis.effort, ply)
            decisions.append(decision)
            if not rows.update(done=len(decisions), decisions=[d.to_dict() for d in decisions]):
                return len(decisions)  # deleted meanwhile (by an admin)
        deals = len({entry["deal"] for entry in state["log"]})
        rows.update(status=Analysis.Status.DONE, summary=search.summary(decisions, deals),
                    finished_at=timezone.now())
        return len(decisions)
    except Exception as error:  # a bug: say so on the page and keep the game
        log.exception("analysis %s failed", analysis_id)
        rows.update(status=Analysis.Status.FAILED, error=f"{type(error).__name__}: {error}")
        return 0
