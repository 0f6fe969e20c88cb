//! The command-line, server and front-end tests, one module per concern,
//! in one test binary: each binary links the whole server, so one binary
//! is linked once (30 were linked 30 times).

mod common;

mod accounts;
mod analyze_cli;
mod architecture;
mod arenas;
mod big_inputs;
mod budgets_cli;
mod bus;
mod cli_cases;
mod client_rules;
mod connections;
mod daily;
mod dataset_cli;
mod engine_jobs;
mod fast_cli;
mod faults;
mod fmc;
mod formats;
mod front_ends;
mod help_examples;
mod openapi;
mod ops;
mod pipes;
mod play_tmux;
mod postgres_outage;
mod profiles;
mod quick_match;
mod races;
mod rankings;
mod ratings;
mod records;
mod render_cli;
mod resubmissions;
mod scale_out;
mod shisen_analysis;
mod shisen_cli;
mod shisen_render_cli;
mod slide_cli;
mod slidysim_formats;
mod solve;
mod time_attack;
mod web_api;
