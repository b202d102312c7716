"""The embedded default's channel layer: channels' in-memory layer, expiring old messages at
most once a second instead of on every receive.

channels' ``InMemoryChannelLayer`` scans every channel and every group before each
``receive`` — each socket receives once per change of its table — so with 2,000 sockets the
scans cost more than the games themselves (about a quarter of the server's time in
``python -m tests.load --tables 500``). Expiring once a second keeps the same behaviour (an
undelivered message is dropped after ``expiry`` seconds, give or take one).
"""
import time

from channels.layers import InMemoryChannelLayer


class ThrottledInMemoryChannelLayer(InMemoryChannelLayer):
    clean_interval_seconds = 1.0

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._next_clean = 0.0

    def _clean_expired(self):
        now = time.monotonic()
        if now < self._next_clean:
            return
        self._next_clean = now + self.clean_interval_seconds
        super()._clean_expired()
