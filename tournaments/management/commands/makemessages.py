"""``makemessages`` that also extracts the pure core's ``N_("...")`` markers (rules/, scoring/)."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_"]
