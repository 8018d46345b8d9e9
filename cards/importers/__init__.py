"""Card importers: the community TMG data set and Citadel's own `citadel-cards/1` files.

Each importer only reads and validates, producing `records.ImportRecords`;
`cards.services.import_card_records` writes them.
"""
