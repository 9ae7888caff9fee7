"""DistributedDataParallel's own errors (the model is run by torchrun on several ranks)."""
