"""What several readers share below the formats: protocol buffers, read-only SQLite files,
file signatures, and the record framing W&B and SwanLab write (`wandb_log`)."""
