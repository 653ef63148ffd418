"""Statistics over the runner's exact aggregates: intervals and paired differences."""
