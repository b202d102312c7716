"""The Celery app. Workers start with ``celery -A hearts_site worker``."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hearts_site.settings")

app = Celery("hearts_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
