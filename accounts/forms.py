from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.core.validators import MaxLengthValidator

from accounts.models import User
from accounts.validators import check_name_is_free, validate_display_name, validate_email_available

DISPLAY_NAME_HELP = (
    "What other players see at the table: 2–40 letters, digits, spaces or . _ - '. "
    "Leave it empty to be shown by your username."
)


def _let_validator_report_length(field):
    """Leave length checks to validate_display_name, whose message says what is allowed."""
    field.max_length = None
    field.validators = [v for v in field.validators if not isinstance(v, MaxLengthValidator)]


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        required=False,
        help_text="Optional: only needed to reset a forgotten password. Never shown to other players.",
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "display_name", "email")
        help_texts = {"display_name": DISPLAY_NAME_HELP}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _let_validator_report_length(self.fields["display_name"])
        self.fields["username"].widget.attrs["autofocus"] = True
        self.fields["email"].widget.attrs["autocomplete"] = "email"

    def clean_username(self):
        username = super().clean_username()
        check_name_is_free(username, what="username")
        return username

    def clean_display_name(self):
        return validate_display_name(self.cleaned_data.get("display_name", ""))

    def clean_email(self):
        return validate_email_available(self.cleaned_data.get("email", ""))


class ProfileForm(forms.ModelForm):
    """What a player may change about themselves: display name and email."""

    class Meta:
        model = User
        fields = ("display_name", "email")
        help_texts = {
            "display_name": DISPLAY_NAME_HELP,
            "email": "Used for password resets. Never shown to other players.",
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _let_validator_report_length(self.fields["display_name"])
        self.fields["display_name"].widget.attrs["placeholder"] = self.instance.username
        self.fields["email"].widget.attrs["autocomplete"] = "email"

    def clean_display_name(self):
        return validate_display_name(self.cleaned_data.get("display_name", ""), user=self.instance)

    def clean_email(self):
        return validate_email_available(self.cleaned_data.get("email", ""), user=self.instance)

