"""Tests of the project: layers, build, generated tables, README, typing."""
