"""What the press is set up with: paper and card sizes (companion/layouts/presets.toml),
fonts, a PDF canvas, where cards sit on a sheet."""
