"""Sources and sinks: what goes into the engine and where its outcomes go.

``records`` (the unit of input), ``files`` (folder walks, reading with a size cap,
atomic writes, output names), ``warc`` (WARC records, with FastWARC), ``sources`` (the
command line's inputs as a stream of records), ``sinks`` (output folder and log,
standard output, in-memory), ``jsonl`` (JSON Lines files, shards and stream), ``shards``
(records in shards with a manifest, resumable: JSON Lines and Parquet), ``arrow`` (the
Arrow schema of the records, from their JSON Schema), ``parquet`` (Parquet shards),
``fingerprint`` (the settings an output was made with, which a re-run must share to resume).
"""
