"""The local leaderboard: run submissions the way the amd-fp8-mm leaderboard does."""
