"""Trackers' stores, each holding runs (`stores.Store`): TensorBoard, W&B, SwanLab, MLflow's
file and SQLite stores, trackio."""
