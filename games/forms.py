"""Forms of the games app: a new solo game, with every house rule of rules.md explained."""
import collections

from django import forms

from games.engine import Rules
from games.models import Seat

MAX_TARGET = 1000
BOT_LEVELS = Seat.BotLevel.choices
DEFAULT_BOT_LEVEL = Seat.BotLevel.MEDIUM
CHOOSE_A_LEVEL = "Choose " + ", ".join(label for _, label in BOT_LEVELS[:-1]) + f" or {BOT_LEVELS[-1][1]}."
NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


def _by_level(item) -> int:
    return [value for value, _ in BOT_LEVELS].index(item[0])

# (field, choices as (value, label, plain-words explanation)); the first choice is the default.
RULE_CHOICES = {
    "passing": [
        ("standard", "Standard", "Pass 3 cards left, right, across, then keep them (a hold deal), in turn. "
         "With 3 or 5 players there is no across: left, right, hold."),
        ("left", "Always left", "Every deal, pass 3 cards to the player on your left."),
        ("none", "No passing", "Play the cards you are dealt."),
    ],
    "odd_cards": [
        ("remove", "Take cards out", "With 3, 5 or 6 players low clubs/diamonds/spades are taken out so "
         "everyone gets the same number of cards. No heart is ever taken out."),
        ("kitty", "Kitty", "Nothing is taken out: the odd cards lie face down until whoever takes the first "
         "trick takes them too, with any points; then they are turned face up for everyone."),
    ],
    "first_trick_points": [
        ("no", "No points on the first trick", "Nobody may play a heart or the Q♠ on the first trick "
         "unless they hold nothing else."),
        ("yes", "Points allowed", "Hearts and the Q♠ may be played on the first trick."),
    ],
    "hearts_lead": [
        ("broken", "Hearts must be broken", "You may not lead a heart until a heart has been played on an "
         "earlier trick (unless you hold only hearts)."),
        ("queen_breaks", "The queen breaks hearts", "As above, but playing the Q♠ also breaks hearts."),
        ("any", "Lead hearts any time", "Hearts may be led whenever you like."),
    ],
    "lead": [
        ("lowest_club", "Lowest club leads", "Whoever holds the 2♣ (the lowest club in play) leads it to "
         "the first trick."),
        ("left_of_dealer", "Old style", "The player left of the dealer leads any card to the first trick."),
    ],
    "moon": [
        ("others_26", "Everyone else takes 26", "Take every point card and you score 0 while "
         "everyone else scores 26 (43 with Black Maria)."),
        ("subtract_26", "Shooter subtracts 26", "Take every point card and 26 (43 with Black Maria) comes off "
         "your score."),
        ("choose", "Shooter chooses", "The shooter picks: subtract 26 (43 with Black Maria), or everyone else "
         "adds as much."),
        ("off", "Off", "No shooting the moon: you simply take the points."),
    ],
    "jack_of_diamonds": [
        ("no", "Off", "The J♦ is an ordinary card."),
        ("yes", "Omnibus", "The J♦ counts −10 to whoever takes it."),
    ],
    "black_maria": [
        ("no", "Off", "Only hearts and the Q♠ score."),
        ("yes", "Black Maria", "The K♠ also scores 10 and the A♠ 7."),
    ],
    "ties": [
        ("continue", "Play on", "If two players tie for the lowest score at the end, deals continue until "
         "one of them is lowest."),
        ("share", "Share the win", "Players tied for the lowest score share the win."),
    ],
}

RULE_LABELS = {
    "passing": "Passing",
    "odd_cards": "Odd cards (3, 5 or 6 players)",
    "first_trick_points": "First trick",
    "hearts_lead": "Leading hearts",
    "lead": "First lead",
    "moon": "Shooting the moon",
    "jack_of_diamonds": "Jack of diamonds",
    "black_maria": "Black Maria",
    "ties": "Ties at the end",
}

BOOLEAN_RULES = ("first_trick_points", "jack_of_diamonds", "black_maria")
TARGET_CHOICES = [("100", "100 points"), ("50", "50 points (a shorter game)"), ("custom", "Another number")]


class ExplainedRadioSelect(forms.RadioSelect):
    """Radio buttons whose options each carry a plain-words explanation."""

    def __init__(self, explanations=None, attrs=None):
        super().__init__(attrs)
        self.explanations = explanations or {}

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        option["explanation"] = self.explanations.get(str(value), "")
        return option


class NewGameForm(forms.Form):
    """A solo game: number of players, a computer level per seat, and the house rules."""

    players = forms.TypedChoiceField(
        label="Players",
        choices=[(n, f"{n} players") for n in (3, 4, 5, 6)],
        coerce=int,
        initial=4,
        widget=forms.RadioSelect,
        help_text="You and the computer players around the table.",
        error_messages={"invalid_choice": "Choose 3, 4, 5 or 6 players."},
    )
    target = forms.ChoiceField(
        label="Game ends at",
        choices=TARGET_CHOICES,
        initial="100",
        widget=forms.RadioSelect,
        help_text="The game ends after the deal in which someone reaches this score; the lowest score wins.",
    )
    target_custom = forms.IntegerField(
        label="Points",
        required=False,
        min_value=1,
        max_value=MAX_TARGET,
        error_messages={
            "min_value": "The target must be at least 1 point.",
            "max_value": f"The target can be at most {MAX_TARGET} points.",
            "invalid": "Enter a whole number of points, like 75.",
        },
    )

    all_bots = forms.ChoiceField(
        label="Every computer",
        choices=[("", "Set each seat below")] + list(BOT_LEVELS),
        required=False,
        help_text="One level for every computer player at once.",
        error_messages={"invalid_choice": CHOOSE_A_LEVEL},
    )

    autoplay_forced = forms.BooleanField(
        label="Play my only card by itself",
        required=False,
        help_text="When just one of your cards may be played, it is played for you; and when nobody has a "
                  "choice left in a deal, its last cards are played at once.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for number in range(1, 6):
            self.fields[f"bot_{number}"] = forms.ChoiceField(
                label=f"Seat {number + 1}",
                choices=BOT_LEVELS,
                initial=DEFAULT_BOT_LEVEL,
                required=False,
                error_messages={"invalid_choice": CHOOSE_A_LEVEL},
            )
        for name, options in RULE_CHOICES.items():
            self.fields[name] = forms.ChoiceField(
                label=RULE_LABELS[name],
                choices=[(value, label) for value, label, _ in options],
                initial=options[0][0],
                widget=ExplainedRadioSelect({value: text for value, _, text in options}),
                error_messages={
                    "invalid_choice": f"Choose one of: {', '.join(label for _, label, _ in options)}.",
                    "required": f"Choose an option for {RULE_LABELS[name].lower()}.",
                },
            )

    @classmethod
    def with_defaults(cls) -> "NewGameForm":
        """The form filled with every default (4 players, Medium computers, standard rules), validated."""
        blank = cls()
        form = cls(data={name: field.initial for name, field in blank.fields.items() if field.initial is not None})
        if not form.is_valid():
            raise ValueError(f"the defaults do not make a game: {form.errors}")
        return form

    def remembered(self) -> dict:
        """The choices of a valid form as field data, to fill the next new-game form with."""
        def as_field(value):  # a checkbox's data is "on" or nothing
            return "on" if value is True else "" if value in (None, False) else str(value)

        return {name: as_field(value) for name, value in self.cleaned_data.items() if name in self.fields}

    def opponents_text(self) -> str:
        """Whom this game is against, in words: "three Medium computers", "five computers
        (two Easy, three Hard)"."""
        levels = collections.Counter(self.seat_bots[1:])
        names = dict(BOT_LEVELS)
        count = sum(levels.values())
        if len(levels) == 1:
            return f"{NUMBER_WORDS[count]} {names[next(iter(levels))]} computer{'s' if count > 1 else ''}"
        parts = ", ".join(f"{NUMBER_WORDS[n]} {names[level]}" for level, n in sorted(levels.items(), key=_by_level))
        return f"{NUMBER_WORDS[count]} computers ({parts})"

    # -- groups for the template
    def bot_fields(self):
        return [self[f"bot_{number}"] for number in range(1, 6)]

    def rule_fields(self):
        return [self[name] for name in RULE_CHOICES]

    # -- validation
    def clean(self):
        data = super().clean()
        target = data.get("target")
        if target == "custom":
            if data.get("target_custom") is None and "target_custom" not in self.errors:
                self.add_error("target_custom", "Enter the number of points the game ends at.")
        players = data.get("players")
        if players:
            for number in range(1, players):
                if data.get("all_bots"):
                    data[f"bot_{number}"] = data["all_bots"]
                elif not data.get(f"bot_{number}"):
                    data[f"bot_{number}"] = DEFAULT_BOT_LEVEL
        if not self.errors:
            try:
                data["rules"] = self._rules(data)
            except ValueError as error:
                raise forms.ValidationError(str(error))
        return data

    def _rules(self, data) -> Rules:
        target = data["target_custom"] if data["target"] == "custom" else int(data["target"])
        options = {name: data[name] for name in RULE_CHOICES}
        for name in BOOLEAN_RULES:
            options[name] = options[name] == "yes"
        return Rules(players=data["players"], target=target, **options)

    @property
    def rules(self) -> Rules:
        return self.cleaned_data["rules"]

    @property
    def seat_bots(self) -> list:
        """``[None, level, ...]``: the host in seat 0, a computer in every other seat."""
        players = self.cleaned_data["players"]
        return [None] + [self.cleaned_data[f"bot_{number}"] or DEFAULT_BOT_LEVEL for number in range(1, players)]
