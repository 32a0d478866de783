//! Licence barcodes: the PDF417 on the back of US and Canadian licences.
