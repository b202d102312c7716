"""The Celery task of an analysis: a thin wrapper over analysis.services."""
from celery import shared_task

from analysis import services


@shared_task(name="analysis.run", acks_late=True)
def run_analysis_task(analysis_id: int) -> int:
    return services.run(analysis_id)
