"""`manifest.yaml` of a capture bundle (format advisor-capture/1)."""

from datetime import datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from advisor import datafile
from advisor.errors import InputError

FORMAT = "advisor-capture/1"


class ManifestCommand(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: str | None = None  # command id, written by advisor collect; else found from file or command
    file: str | None = None
    command: str
    exit_status: int | None = None  # null: the command never finished (timed out)
    stderr: str = ""
    sha256: str | None = None


class Manifest(BaseModel):
    model_config = ConfigDict(extra="ignore")
    format: str = FORMAT
    host: str | None = Field(default=None, max_length=255)  # a DNS name is at most 253
    collected_at: datetime | None = None
    not_collected: str | None = None  # why the host could not be collected (its collector's own words)
    commands: list[ManifestCommand] = []


def load(path: Path, shown: str) -> Manifest:
    data = datafile.load(path, InputError, shown)
    if not isinstance(data, dict):
        raise InputError(f"{shown}: manifest must be a mapping")
    try:
        manifest = Manifest.model_validate(data)
    except ValidationError as exc:
        raise InputError(f"{shown}: {datafile.first_error(exc)}") from None
    if manifest.format.split("/")[0] != FORMAT.split("/")[0]:
        raise InputError(f"{shown}: unknown capture format {manifest.format!r} (expected {FORMAT})")
    return manifest
