"""What the pages show of analyses: the replay's panel and the statistics' figures."""
from __future__ import annotations

from django.conf import settings
from django.db.models import F

from analysis.models import Analysis
from analysis.services import analyses_left_today
from games.bots.analysis import Decision, summary
from games.engine import Card

MISTAKES = ("inaccuracy", "mistake", "blunder")
PHASES = (("passing", "Passing"), ("leading", "Leading"), ("following", "Following suit"),
          ("discarding", "Discarding"), ("moon", "Moon choice"))
#: the games whose analyses the statistics page sums up
RECENT_GAMES = 20


def _shown(text: str) -> str:
    """A decision's option as people read it: cards with suit symbols."""
    if text in ("add", "subtract"):
        return {"add": "add to the others", "subtract": "subtract from yourself"}[text]
    return " ".join(Card.parse(code).symbol for code in text.split())


def panel_context(table, seat: int, ply: int, user) -> dict:
    """The analysis panel of the replay at move ``ply``."""
    analysis = Analysis.objects.filter(table=table, seat=seat).first()
    context = {"analysis": analysis, "table": table, "ply": ply,
               "left_today": analyses_left_today(user), "per_day": settings.ANALYSES_PER_DAY}
    if analysis is None or analysis.status != Analysis.Status.DONE:
        return context
    decisions = [Decision.from_dict(d) for d in analysis.decisions]
    here = next((d for d in decisions if d.ply == ply), None)
    mistakes = [d.ply for d in decisions if d.verdict in MISTAKES]
    figures = analysis.summary
    worst = max(figures["lost_by_deal"].values(), default=0) or 1
    counts = figures["counts"]
    context.update({
        "here": here and {
            "decision": here, "chosen": _shown(here.chosen), "best": _shown(here.best),
            "is_mistake": here.verdict in MISTAKES,
        },
        "previous_mistake": max((p for p in mistakes if p < ply), default=None),
        "next_mistake": min((p for p in mistakes if p > ply), default=None),
        "mistake_number": mistakes.index(ply) + 1 if ply in mistakes else None,
        "mistake_count": len(mistakes),
        "figures": figures,
        "verdict_counts": [(count, word if count == 1 else plural)
                           for count, word, plural in ((counts.get("inaccuracy", 0), "inaccuracy", "inaccuracies"),
                                                       (counts.get("mistake", 0), "mistake", "mistakes"),
                                                       (counts.get("blunder", 0), "blunder", "blunders"))],
        "deal_bars": [{"deal": deal, "lost": lost, "width": round(100 * lost / worst)}
                      for deal, lost in figures["lost_by_deal"].items()],
        "median_error": sorted(d.error for d in decisions)[len(decisions) // 2] if decisions else 0,
    })
    return context


def accuracies(user, tables) -> dict[int, float]:
    """The accuracy of ``user``'s finished analyses at ``tables``, by table id."""
    rows = Analysis.objects.filter(table__in=tables, status=Analysis.Status.DONE, table__seats__user=user,
                                   table__seats__number=F("seat")).values_list("table_id", "summary")
    return {table_id: summary.get("accuracy") for table_id, summary in rows}


def player_summary(user, games: int = RECENT_GAMES) -> dict | None:
    """The person's accuracy and points lost per deal over their last ``games`` analysed
    games, overall and by phase; None before any."""
    analyses = list(
        Analysis.objects.filter(status=Analysis.Status.DONE, table__seats__user=user,
                                table__seats__number=F("seat"))
        .order_by("-finished_at")[:games]
    )
    if not analyses:
        return None
    decisions = [Decision.from_dict(d) for a in analyses for d in a.decisions]
    deals = sum(_deals_of(a) for a in analyses)
    figures = summary(decisions, deals)
    phases = []
    for key, label in PHASES:
        phase = figures["phases"].get(key)
        if phase:
            phases.append({"label": label, "decisions": phase["decisions"], "accuracy": phase["accuracy"],
                           "lost_per_deal": round(phase["lost"] / deals, 2)})
    return {"games": len(analyses), "decisions": len(decisions), "accuracy": figures["accuracy"],
            "lost_per_deal": figures["lost_per_deal"], "phases": phases}


def _deals_of(analysis: Analysis) -> int:
    return analysis.summary.get("deals") or 1
