"""Test support shared by the test packages (tests/server, tests/e2e): real server
processes, worker clusters behind HAProxy and throwaway PostgreSQL schemas."""
