"""GURPS reference data that is not a roll table: locations, wounding modifiers, critical ranges."""
