"""Tap buttons for the entry forms: Django's choice widgets drawn from option templates.

``TapRadio`` and ``TapCheckboxes`` are RadioSelect / CheckboxSelectMultiple with efuda's own
templates (``templates/widgets/``): each option is a real radio or checkbox inside a large
label, so the page works without JavaScript and every state is a checked control. A form passes
per-option extras (a seat number, an accessible name for a suit symbol, ``lang``) through
``option_extras``: ``{value: {"number": 2, "sr_label": "Spades", "suit_class": "suit-red"}}``.
"""

from django import forms


class _TapMixin:
    option_template_name = "widgets/tap_option.html"

    def __init__(self, *args, cls: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.cls = cls
        self.option_extras: dict[str, dict] = {}

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        context["widget"]["cls"] = self.cls
        return context

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        option.update(self.option_extras.get(str(value), {}))
        return option


class TapRadio(_TapMixin, forms.RadioSelect):
    template_name = "widgets/taps.html"


class TapCheckboxes(_TapMixin, forms.CheckboxSelectMultiple):
    template_name = "widgets/taps.html"

    def format_value(self, value):
        """Keep the posted order and repeats (the scoring core refuses a repeated player)."""
        if value is None:
            return []
        if not isinstance(value, (tuple, list)):
            value = [value]
        return [str(v) for v in value]


class Stepper(forms.NumberInput):
    """A number (numeric keypad) with − and + buttons that have accessible names."""

    template_name = "widgets/stepper.html"

    def __init__(self, attrs=None, step_label=""):
        defaults = {"min": "0", "inputmode": "numeric"}
        super().__init__(defaults | (attrs or {}))
        self.step_label = step_label

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        context["widget"]["step_label"] = self.step_label
        return context
