// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorProtocol
import CuratorSystem
import CuratorThumbnails
import Glibc

/// Carries out one `ThumbnailJob` in the worker: finds the file and the cache (the
/// descriptors that came with the job, or the paths it names), reuses every valid
/// thumbnail already there (ours or another program's), makes the missing sizes,
/// stamps and writes them, or writes a fail record when the file is at fault; then
/// the previews for browsers, when the job asks for them.
public struct ThumbnailJobRunner {
    public var maker: ThumbnailMaker
    /// The environment that says where the user's cache is, for a job that names none.
    public var environment: [String: String]
    /// Called right before a file is decoded (the worker's fault-injection hook for tests).
    public var beforeDecoding: ((ThumbnailJob) -> Void)?

    public init(maker: ThumbnailMaker, environment: [String: String]) {
        self.maker = maker
        self.environment = environment
    }

    /// The result of `job`. `descriptors` (the file, then the `thumbnails` directory,
    /// or none) stay the caller's to close.
    public func run(_ job: ThumbnailJob, descriptors: [FileDescriptor]) -> ThumbnailResult {
        let started = MonotonicClock.nanoseconds()
        var result: ThumbnailResult
        do {
            result = try attempt(job, descriptors: descriptors)
        } catch {
            result = .failure(id: job.id, error.code, error.reason)
        }
        result.milliseconds = Int((MonotonicClock.nanoseconds() - started) / 1_000_000)
        return result
    }

    private func attempt(_ job: ThumbnailJob, descriptors: [FileDescriptor]) throws(ThumbnailMakingError) -> ThumbnailResult {
        guard descriptors.isEmpty || descriptors.count == 2 else {
            throw ThumbnailMakingError(.badJob, "\(descriptors.count) descriptors: the file and the cache, or none")
        }
        let sizes = Array(Set(job.sizes)).sorted()
        guard !sizes.isEmpty else { throw ThumbnailMakingError(.badJob, "no sizes") }
        let uri = FileURI(verbatim: job.uri)
        let uriPath: ByteString
        do { uriPath = try uri.path() } catch { throw ThumbnailMakingError(.badJob, "uri: \(error)") }

        // The file.
        let source: FileDescriptor
        let ownsSource: Bool
        if let passed = descriptors.first {
            (source, ownsSource) = (passed, false)
        } else {
            let path = job.filePath ?? uriPath
            do {
                // O_NONBLOCK: a FIFO under a photo's name must not hang the worker.
                source = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK)
            } catch {
                throw ThumbnailMakingError(.unreadable, "\(error)")
            }
            ownsSource = true
        }
        defer { if ownsSource { try? source.close() } }  // read only
        let status: FileStatus
        do { status = try FileStatus.of(descriptor: source) } catch { throw ThumbnailMakingError(.unreadable, "\(error)") }
        guard status.isRegularFile else { throw ThumbnailMakingError(.unreadable, "not a regular file") }
        let subject = ThumbnailSubject(uri: uri, mtime: Self.seconds(status.mtimeNanoseconds), size: UInt64(max(0, status.size)))

        // The cache.
        let cache: ThumbnailDirectory
        do {
            if descriptors.count == 2 {
                cache = try ThumbnailDirectory.duplicating(descriptors[1])
            } else if let root = job.cachePath ?? ThumbnailCache.user(environment: environment)?.root {
                cache = try ThumbnailDirectory.open(ThumbnailCache(root: root), create: true)
            } else {
                throw ThumbnailMakingError(.badJob, "no cache: the job names none and neither XDG_CACHE_HOME nor HOME is set")
            }
        } catch let error as ThumbnailMakingError {
            throw error
        } catch {
            throw ThumbnailMakingError(.cacheWrite, "\(error)")
        }

        var result = ThumbnailResult(id: job.id, status: .reused)
        result.mtime = subject.mtime
        result.size = subject.size
        if (job.mtime.map { $0 != subject.mtime } ?? false) || (job.size.map { $0 != subject.size } ?? false) {
            result.changed = true
        }
        var outcomes: [ThumbnailSize: ThumbnailOutcome] = [:]
        var missing: [ThumbnailSize] = []
        for size in sizes {
            if case .valid = try? cache.lookup(subject, size: size) {
                outcomes[size] = .reused
            } else {
                missing.append(size)
            }
        }
        result.sizes = outcomes
        let family = ImageFamily.of(type: job.type, name: uriPath)
        if missing.isEmpty {
            return measured(previewed(result, job: job, source: source, status: status, family: family, subject: subject, cache: cache),
                            job: job, cache: cache, uri: uri)
        }
        // Our own earlier failure on this very version of the file: not again. (A
        // valid thumbnail from another program, found above, still counts.)
        if let reason = try? cache.failRecord(for: subject) {
            var failed = ThumbnailResult.failure(id: job.id, .previouslyFailed, reason)
            (failed.mtime, failed.size, failed.changed, failed.sizes) = (result.mtime, result.size, result.changed, outcomes)
            return failed
        }

        if family == .video {
            result.status = .placeholder
            return result
        }
        beforeDecoding?(job)
        let made: ThumbnailMaker.Made
        do {
            made = try maker.make(from: source, size: Int(status.size), family: family, sizes: missing)
        } catch {
            var failed = ThumbnailResult.failure(id: job.id, error.code, error.reason)
            (failed.mtime, failed.size, failed.changed) = (result.mtime, result.size, result.changed)
            if error.code.isFileFault {
                do {
                    try cache.writeFailRecord(for: subject, reason: error.description)
                    failed.recorded = true
                } catch {
                    log.warning("thumbnailer: no fail record for \(uri): \(error)")
                }
            }
            return failed
        }
        result.width = made.width
        result.height = made.height
        let mimeType = ImageFamily.mimeType(type: job.type, name: uriPath)
        for size in missing {
            guard let thumbnail = made.thumbnails[size] else { continue }
            var text = subject.textEntries
            if let mimeType { text.append((ThumbnailKeys.mimeType, mimeType)) }
            text += [(ThumbnailKeys.imageWidth, String(made.width)), (ThumbnailKeys.imageHeight, String(made.height)),
                     (ThumbnailKeys.software, ThumbnailKeys.softwareName)]
            do {
                let png = try PNGChunks.insertingText(text, into: thumbnail.png)
                try cache.write(png, for: uri, size: size)
            } catch {
                var failed = ThumbnailResult.failure(id: job.id, .cacheWrite, "\(error)")
                (failed.mtime, failed.size) = (result.mtime, result.size)
                failed.sizes = outcomes
                return failed
            }
            outcomes[size] = .written
        }
        result.sizes = outcomes
        result.status = .written
        return measured(previewed(result, job: job, source: source, status: status, family: family, subject: subject, cache: cache),
                        job: job, cache: cache, uri: uri)
    }

    /// `result` with the previews the job asks for, found valid or made. A preview
    /// that cannot be made costs the job nothing: another picture stands in.
    private func previewed(_ result: ThumbnailResult, job: ThumbnailJob, source: FileDescriptor, status: FileStatus, family: ImageFamily,
                           subject: ThumbnailSubject, cache: ThumbnailDirectory) -> ThumbnailResult {
        var result = result
        for kind in PreviewKind.allCases where job.wants(kind) {
            if let valid = try? cache.openPreview(subject, kind: kind) {
                try? valid.close()  // read only
                result.record(.reused, for: kind)
                continue
            }
            do {
                let made = switch kind {
                case .full: try maker.preview(from: source, size: Int(status.size), family: family)
                case .screen: try maker.screen(from: source, size: Int(status.size), family: family)
                }
                guard let made, let stamped = PreviewJPEG.stamped(made.jpeg, subject: subject, orientation: made.orientation) else {
                    result.record(.unavailable, for: kind)
                    continue
                }
                try cache.writePreview(stamped, for: subject.uri, kind: kind)
                result.record(.written, for: kind)
            } catch {
                log.info("thumbnailer: no \(kind.rawValue) preview of \(subject.uri): \(error)")
                result.record(.unavailable, for: kind)
            }
        }
        return result
    }

    /// `result` with the thumbnails' measures when the job asks for them. A measure
    /// that fails costs the job nothing: the thumbnails are made all the same, and
    /// the photo is then in no stack.
    private func measured(_ result: ThumbnailResult, job: ThumbnailJob, cache: ThumbnailDirectory, uri: FileURI) -> ThumbnailResult {
        guard job.look == true else { return result }
        var result = result
        do {
            guard let normal = try cache.contents(for: uri, size: .normal) else { return result }
            result.look = try LookMeasure.look(normal: normal, large: try cache.contents(for: uri, size: .large))
        } catch {
            log.info("thumbnailer: no measures of \(uri): \(error)")
        }
        return result
    }

    /// st_mtime: whole seconds, rounded down.
    static func seconds(_ nanoseconds: Int64) -> Int64 {
        let (quotient, remainder) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        return remainder < 0 ? quotient - 1 : quotient
    }
}
