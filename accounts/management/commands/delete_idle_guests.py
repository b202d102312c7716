"""Delete guests (visitors who played without signing up) not seen for a while, with their
games. Run it daily (cron, a systemd timer): ``manage.py delete_idle_guests --days 30``."""
import datetime as dt

from django.core.management.base import BaseCommand

from accounts.guests import delete_idle_guests


class Command(BaseCommand):
    help = "Delete guests not seen for --days days (default 30), with their games."

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=30, help="how long a guest may stay unseen (default 30)")

    def handle(self, *args, days, **options):
        if days < 1:
            self.stderr.write("--days must be at least 1.")
            return
        count = delete_idle_guests(dt.timedelta(days=days))
        self.stdout.write(f"Deleted {count} guest(s) not seen for {days} days.")
