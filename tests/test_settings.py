"""The settings read the environment as pydantic-settings' environment source did: a field not
given is ``PREFIX<FIELD>`` in any case, what is given wins, a variable naming no field is ignored,
a bad value is an error naming its field; ``model_validate`` reads the environment too.
``JudgeConfig`` and ``ServeSettings`` behaved the same before pydantic-settings was dropped (34
cases compared: docs/results/2026-11-28-start-up-settings.md)."""

from __future__ import annotations

import pytest

from sejury.config import JudgeConfig, ServeSettings
from sejury.errors import InputError
from sejury.schema import Strategy


def test_a_setting_not_given_comes_from_its_variable_in_any_case(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("sejury_Team", "S1,S3")
    monkeypatch.setenv("SEJURY_EXECUTE", "yes")
    monkeypatch.setenv(JudgeConfig.env_prefix + "NO_SUCH_SETTING", "1")
    config = JudgeConfig.build()
    assert config.team == [Strategy("direct"), Strategy("equivalence")] and config.execute
    assert JudgeConfig.build(team="S2").team == [Strategy("rethink")]  # what is given wins
    assert JudgeConfig.build(team=None).team is None  # given as None too
    assert JudgeConfig.model_validate({}).team == config.team
    assert JudgeConfig.model_validate({"team": "S2"}).team == [Strategy("rethink")]


def test_a_bad_variable_is_an_error_naming_its_field(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEJURY_PASS_MARK", "high")
    with pytest.raises(InputError, match="pass_mark") as err:
        JudgeConfig.build()
    assert err.value.field == "pass_mark"
    monkeypatch.setenv("SEJURY_SERVE_PORT", "70000")
    with pytest.raises(InputError, match="port"):
        ServeSettings.build()


def test_each_settings_object_reads_its_own_prefix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEJURY_SERVE_MAX_CONCURRENT", "3")
    monkeypatch.setenv(JudgeConfig.env_prefix + "PORT", "1")  # not the server's: its prefix is SEJURY_SERVE_
    assert ServeSettings.build().max_concurrent == 3 and ServeSettings.build().port == 8321
    with pytest.raises(InputError, match="not a setting"):
        JudgeConfig.build(serve_max_concurrent=3)
