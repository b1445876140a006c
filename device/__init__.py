"""The appliance: config, hardware backends, the event loop and store, the display and the CLI."""
