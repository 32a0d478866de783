//! Importers of list files into [`screening::Entry`]s (contract §19). Work in progress.
