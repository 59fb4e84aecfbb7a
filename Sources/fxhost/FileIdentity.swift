import Glibc

/// A file as `stat` identifies it: the same device and inode is the same file.
struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64

    init?(path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
