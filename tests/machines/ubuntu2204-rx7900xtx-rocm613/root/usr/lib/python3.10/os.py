"""OS routines (placeholder)."""
