"""What several readers share below the formats: protocol buffers (field by field in
`protobuf`, many messages at once in `bulk`), read-only SQLite files, file signatures, and
the record framing W&B and SwanLab write (`wandb_log`)."""
