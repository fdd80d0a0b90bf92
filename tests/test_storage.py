"""The storage layer on its own: records kept while the disk refuses, written once, in order."""

import errno
import os

import pytest

from scoreboard.store.journal import list_archive, read_journal
from scoreboard.store.storage import Storage, StorageFault, classify, diagnose


@pytest.fixture
def storage(tmp_path):
    made = []

    def make(**kw):
        made.append(Storage(tmp_path, log=lambda m: None, warn=lambda m: None, **kw))
        made[-1].start()
        return made[-1]

    yield make
    for s in made:
        s.close()


def test_a_write_reported_failed_that_reached_the_disk_is_not_written_twice(
    storage, tmp_path, monkeypatch
):
    s = storage()
    durable = []
    s.on_durable = durable.append
    assert s.append(["race 2"])
    real_fsync = os.fsync

    def fsync_fails(fd):  # the bytes are written; the disk then reports an error
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "fsync", fsync_fails)
    monkeypatch.setattr(os, "ftruncate", lambda fd, size: fsync_fails(fd))  # no cut either
    assert not s.append(["break A"])
    assert s.fault.problem == "broken" and s.lines == ["race 2", "break A"]
    monkeypatch.setattr(os, "fsync", real_fsync)
    monkeypatch.undo()
    assert s.retry() and s.fault is None and s.pending == []
    assert read_journal(tmp_path).lines == ["race 2", "break A"]  # once, not twice
    assert durable == [["race 2"], ["break A"]]


def test_an_archive_kept_while_the_disk_refuses_goes_in_its_place_in_the_order(
    storage, tmp_path, monkeypatch
):
    s = storage()
    s.append(["race 2"])
    real_write = os.write

    def full(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "write", full)
    assert not s.append(["break A"])
    assert not s.archive({"players": "x"})
    assert not s.append(["race 3"])
    assert s.lines == ["race 3"] and s.fault == StorageFault(
        "full", str(tmp_path / "journal.log"), os.strerror(errno.ENOSPC)
    )
    monkeypatch.setattr(os, "write", real_write)
    assert s.retry()
    (archived,) = list_archive(tmp_path)
    assert archived.lines() == ["race 2", "break A"]
    assert read_journal(tmp_path).lines == ["race 3"]


def test_classify_names_the_problem_and_the_path(tmp_path):
    fault = classify(IsADirectoryError(errno.EISDIR, "Is a directory", "/x/journal.log"), "/y")
    assert fault == StorageFault("folder", "/x/journal.log", os.strerror(errno.EISDIR))
    assert classify(FileExistsError(errno.EEXIST, "File exists", "/s"), "/y").problem == (
        "not-a-folder"
    )
    assert "free some space" in str(classify(OSError(errno.ENOSPC, "full"), "/j"))


def test_diagnose_finds_without_writing_what_the_appliance_meets(tmp_path):
    assert diagnose(tmp_path / "new") is None  # made on start: nothing wrong
    (tmp_path / "file").write_text("x")
    assert diagnose(tmp_path / "file").problem == "not-a-folder"
    (tmp_path / "state" / "journal.log").mkdir(parents=True)
    assert diagnose(tmp_path / "state") == StorageFault(
        "folder", str(tmp_path / "state" / "journal.log"), os.strerror(errno.EISDIR)
    )
    assert not (tmp_path / "state" / "journal.log").is_file()
