from django.conf import settings
from django.db import models

from games.models import Table


class Analysis(models.Model):
    """The analysis of one seat of one finished game: stored once, filled in as it runs.

    ``decisions`` holds :meth:`games.bots.analysis.Decision.to_dict` of each analysed decision
    in order, ``summary`` what :func:`games.bots.analysis.summary` makes of them."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Waiting to start"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="analyses")
    seat = models.PositiveSmallIntegerField()
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="analyses"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    effort = models.PositiveIntegerField(help_text="Simulated card plays per decision.")
    done = models.PositiveIntegerField(default=0, help_text="Decisions analysed so far.")
    total = models.PositiveIntegerField(default=0, help_text="Decisions to analyse (0 until it starts).")
    decisions = models.JSONField(default=list, blank=True)
    summary = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "analyses"
        constraints = [models.UniqueConstraint(fields=["table", "seat"], name="one_analysis_per_game_and_seat")]
        indexes = [models.Index(fields=["requested_by", "created_at"])]

    def __str__(self) -> str:
        return f"Analysis of table {self.table_id}, seat {self.seat} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)

    @property
    def percent(self) -> int:
        return round(100 * self.done / self.total) if self.total else 0
