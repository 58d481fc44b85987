"""Seed a database for a load or restart run: ``python -m loadtest.seed [--demo] [--history N]
[--scorekeepers K]``; prints a JSON description (users, sessions, pages) on its last line.

Runs with the caller's DJANGO_SETTINGS_MODULE and DATABASE_URL; writes only through services
(``loadtest/world.py``).
"""

import argparse
import json
import os

import django


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--demo", action="store_true", help="load manage.py demo_data first")
    parser.add_argument("--history", type=int, default=0, help="extra past deals to record")
    parser.add_argument("--scorekeepers", type=int, default=1)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    django.setup()
    # Imported once Django is set up: the models and services need the app registry.
    from django.core.management import call_command

    from loadtest.world import world_build

    if args.demo:
        call_command("demo_data", "--if-empty", verbosity=0)
    print(json.dumps(world_build(history=args.history, scorekeepers=args.scorekeepers)))


if __name__ == "__main__":
    main()
