"""`interp simulate --plot FILE.png` (the `plot` extra): the file is a PNG image of the run's size."""
from __future__ import annotations

import struct

import pytest

from interp.cli import main

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def test_plot_writes_a_png(tmp_path, capsys):
    pytest.importorskip("matplotlib", reason="the plot extra is not installed: pip install '.[plot]'")
    path = tmp_path / "run.png"
    assert main(["simulate", "games/preferans.yaml", "-n", "6", "--seed", "1", "--jobs", "1",
                 "--plot", str(path)]) == 0
    assert f"plot in {path}" in capsys.readouterr().out
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (1200, 450)  # two panels of 6 x 4.5 inches at matplotlib's 100 dpi


def test_plot_without_matplotlib_is_a_one_line_error(tmp_path, capsys, monkeypatch):
    import builtins
    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.split(".")[0] == "matplotlib":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    assert main(["simulate", "games/preferans.yaml", "-n", "2", "--plot", str(tmp_path / "x.png")]) == 2
    assert "pip install 'interp[plot]'" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()
