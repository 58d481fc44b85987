"""The results export's choices: which game, which days, which kind of file. A GET form, so a
download can be bookmarked; a wrong value is a message beside its field."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import Game

FORMATS = (
    ("csv", _("CSV in UTF-8 (Excel, LibreOffice, Google Sheets)")),
    ("sjis", _("CSV in Shift_JIS (older Japanese Excel)")),
    ("xlsx", _("Excel workbook (.xlsx)")),
)


class ResultsExportForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"), choices=Game.choices, widget=forms.RadioSelect)
    date_from = forms.DateField(
        label=_("From (optional)"), required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )  # fmt: skip
    date_to = forms.DateField(
        label=_("To (optional)"), required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )  # fmt: skip
    format = forms.ChoiceField(
        label=_("File"), choices=FORMATS, initial="csv", widget=forms.RadioSelect
    )

    def clean(self):
        data = super().clean()
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", _("The last day comes before the first."))
        return data
