"""The forms of live play's pages: a friend room's settings, the matchmaking queue's table."""
from django import forms

from games.forms import NewGameForm
from live import matchmaking


class RoomForm(NewGameForm):
    """A friend room: the solo game's players, target and house rules (no computer seats —
    the host fills empty seats later), plus the turn timer and whether the game is rated."""

    turn_timer_seconds = forms.TypedChoiceField(
        label="Turn timer", coerce=int, initial=0, widget=forms.RadioSelect,
        choices=[(0, "None"), (30, "30 seconds"), (60, "60 seconds")],
        help_text="When a player's time runs out, the computer plays that turn for them.",
    )
    rated = forms.BooleanField(required=False, label="Rated game", help_text="Counts toward everyone's rating.")
    listed = forms.BooleanField(required=False, initial=True, label="List it in the lobby: anyone may join",
                                help_text="Otherwise only those you send the link to can find it.")
    chat = forms.BooleanField(required=False, initial=True, label="Table chat")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in [name for name in self.fields if name.startswith("bot_")]:
            del self.fields[name]


class QueueForm(forms.Form):
    table_size = forms.TypedChoiceField(choices=[(n, f"{n} players") for n in matchmaking.TABLE_SIZES], coerce=int, initial=4, label="Table")
