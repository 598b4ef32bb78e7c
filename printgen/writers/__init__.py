"""Writers turn the millimetre picture into files: one module per format."""
