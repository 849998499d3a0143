# kdump page codecs beyond zlib, each used when its library is installed.
# Nothing here yet: the kdump reader adds lzo, snappy and zstd.
