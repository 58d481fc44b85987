"""The layer contracts stay in .importlinter (run by scripts/test through ``lint-imports``)."""

import configparser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _contracts() -> dict[str, dict[str, object]]:
    parser = configparser.ConfigParser()
    assert parser.read(ROOT / ".importlinter", encoding="utf-8"), ".importlinter is missing"
    contracts = {}
    for section in parser.sections():
        if section.startswith("importlinter:contract:"):
            options = dict(parser[section])
            for key in ("layers", "source_modules", "forbidden_modules"):
                if key in options:
                    options[key] = options[key].split()
            contracts[section.split(":", 2)[2]] = options
    return contracts


def test_the_layers_run_core_rules_scoring_app():
    layers = _contracts()["layers"]
    assert layers["type"] == "layers"
    assert layers["layers"] == ["tournaments", "scoring", "rules", "core"]


def test_the_pure_core_and_the_draw_import_no_django():
    pure = _contracts()["pure-core"]
    assert pure["type"] == "forbidden"
    assert set(pure["source_modules"]) == {"core", "rules", "scoring", "tournaments.draw"}
    assert pure["forbidden_modules"] == ["django"]


def test_the_draw_imports_nothing_from_the_rest_of_the_app():
    draw = _contracts()["draw-alone"]
    assert draw["type"] == "forbidden"
    assert draw["source_modules"] == ["tournaments.draw"]
    assert draw["forbidden_modules"] == ["tournaments.*"]


def test_the_rating_maths_imports_no_django_and_no_app():
    ratings = _contracts()["ratings-pure"]
    assert ratings["type"] == "forbidden"
    assert ratings["source_modules"] == ["ratings"]
    assert set(ratings["forbidden_modules"]) == {"django", "tournaments"}


def test_selectors_never_import_services():
    selectors = _contracts()["selectors-read"]
    assert selectors["type"] == "forbidden"
    assert selectors["source_modules"] == ["tournaments.selectors"]
    assert selectors["forbidden_modules"] == ["tournaments.services"]


def test_services_and_selectors_never_import_the_web_side():
    web = _contracts()["no-web-below-views"]
    assert set(web["source_modules"]) == {"tournaments.services", "tournaments.selectors"}
    assert set(web["forbidden_modules"]) >= {"tournaments.views", "tournaments.forms"}


def test_every_contract_says_how_to_fix_it():
    for name, contract in _contracts().items():
        assert contract.get("broken_contract_guidance", "").strip(), name


def test_scripts_test_runs_the_linters_before_the_tests_and_stops_on_failure():
    script = (ROOT / "scripts" / "test").read_text(encoding="utf-8")
    lint = script.index("lint-imports")
    assert script.index('ruff" check') < lint < script.index("-m pytest")
    assert 'lint-imports" --no-cache ||' in script and "exit 1" in script


def test_tasks_live_beside_their_services_no_cycle_through_tasks_py():
    tasks = _contracts()["tasks-beside-services"]
    assert tasks["type"] == "forbidden"
    assert tasks["source_modules"] == ["tournaments.services"]
    assert tasks["forbidden_modules"] == ["tournaments.tasks"]
