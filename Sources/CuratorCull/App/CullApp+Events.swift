// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

extension CullApp {
    /// The daemon's events: the view's photos come and go, the session is changed by
    /// another client, a batch moves on.
    func handle(_ event: Event) {
        switch event.event {
        case .added, .removed, .changed, .moved:
            if let id = event.photo?.id ?? event.photoId {
                data.forget(id)
                thumbnails.forget(id)
                fileFacts.forget(id)
            }
            if event.event == .changed || event.event == .moved, data.position(of: event.photo?.id ?? -1) != nil {
                dirty = true
            }
            if event.event != .changed { scheduleShape() }
        case .selection where event.session == session:
            mirror.apply(event: event)
            if let view = event.view, view != data.view { scheduleShape(soon: true) }
            dirty = true
        case .batch:
            if case .progress(let title, _, let total) = overlay {
                overlay = .progress(title: title, done: event.done ?? 0, total: event.total ?? total)
                dirty = true
            }
        case .sets:
            // A view of stacks or duplicates shows the sets: listed again.
            if let filter = data.view.filter, filter.stacks == true || filter.collapseStacks == true || filter.duplicates == true {
                scheduleShape()
            }
        case .metadata:
            if let photo = event.photo {
                data.setMarks(photo.id, rating: photo.rating, flag: photo.flag, label: photo.label)
                if data.position(of: photo.id) != nil { dirty = true }
                // A view narrowed or sorted by marks may gain, lose or move the photo.
                if data.view.filter?.hasMarks == true || [.rating, .flag, .label].contains(data.view.sort) { scheduleShape() }
            }
        case .thumbnail:
            if let id = event.photoId { thumbnails.event(photo: id, state: event.state) }
        case .offline:
            say("\(event.root ?? "A root") is offline: \(event.message ?? "")", warning: true)
            scheduleShape()
        case .online:
            say("\(event.root ?? "A root") is back online.")
            scheduleShape()
        case .scan:
            if event.state == "done" { scheduleShape() }
        case .overflow, .dropped:
            // Events were lost: what the daemon holds now is listed again.
            scheduleShape(soon: true)
            try? link.call(SelectionRequest(session: session)) { [weak self] outcome in
                if case .success(let result) = outcome { self?.apply(result) }
            }
        default:
            break
        }
    }

    /// Lists the shape again shortly: a burst of events makes one listing.
    func scheduleShape(soon: Bool = false) {
        shape.schedule(soon: soon, now: MonotonicClock.nanoseconds())
    }

    func listShape() throws(CullError) {
        guard shape.begin() else { return }
        let before = cursor.takeFollow(current: data.id(at: cursor.position))
        try link.send(shapeRequest()) { [weak self] line in
            guard let self else { return }
            let outcome = ShapeListing.read(Array(line))
            self.shape.finish(now: MonotonicClock.nanoseconds())
            switch outcome {
            case .success(let listing):
                self.data.replaceShape(with: listing)
                self.grid.invalidate()
                self.cursor.land(on: before.flatMap { self.data.position(of: $0) }, total: self.data.total)
                self.dirty = true
            case .failure(let error) where !self.data.isComplete:
                // The start's shape: without it there is no grid to move in.
                self.requests.carry(CullError.daemon(error))
            case .failure(let error):
                self.say(error.message, warning: true)
            }
        }
    }
}
