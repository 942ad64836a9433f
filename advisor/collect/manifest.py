"""`manifest.yaml` of a capture bundle (format advisor-capture/1)."""

from datetime import datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from advisor import datafile
from advisor.errors import InputError

FORMAT = "advisor-capture/1"


class ManifestCommand(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: str | None = None  # command id, written by advisor collect; else found from file or command
    file: str | None = None
    command: str

    @field_validator("file")
    @classmethod
    def _a_file_name(cls, name: str | None) -> str | None:
        """A name the file system can hold: a NUL or a name of more than 255
        bytes made the whole fleet's review fail when the file was opened."""
        if name is not None:
            if "\0" in name:
                raise ValueError("a file name holding a NUL character")
            if any(len(part.encode("utf-8", "surrogateescape")) > 255 for part in name.split("/")):
                raise ValueError("a file name longer than 255 bytes")
        return name
    exit_status: int | None = None  # null: the command never finished (timed out)
    stderr: str = ""
    sha256: str | None = None
    taken_at: datetime | None = None  # when it was run, for an output read twice (--sample): each sample's time


class Manifest(BaseModel):
    model_config = ConfigDict(extra="ignore")
    format: str = FORMAT
    host: str | None = Field(default=None, max_length=255)  # a DNS name is at most 253
    collected_at: datetime | None = None
    not_collected: str | None = None  # why the host could not be collected (its collector's own words)
    sample: str | None = None  # `--sample` as given (30s): counters read twice that far apart, `<id>~2.txt` the second
    commands: list[ManifestCommand] = []


def load(path: Path, shown: str) -> Manifest:
    text = datafile.read_text(path, InputError, shown)
    data = datafile.parse(text, InputError, shown)
    if not isinstance(data, dict):
        raise InputError(f"{shown}: manifest must be a mapping")
    try:
        manifest = Manifest.model_validate(data)
    except ValidationError as exc:
        raise InputError(datafile.located_error(text, exc, shown)) from None
    if manifest.format.split("/")[0] != FORMAT.split("/")[0]:
        raise InputError(f"{shown}: unknown capture format {manifest.format!r} (expected {FORMAT})")
    return manifest
