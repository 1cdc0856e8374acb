// SPDX-License-Identifier: GPL-2.0-or-later

/// What places a photo of a batch in a trash of each kind: the batch's chunk planner.
/// A kind of trash picks which of these it is, without the trash layer naming the
/// batch's types.
protocol TrashPlacer {
    associatedtype Placing
    associatedtype Caches
    associatedtype Prepared

    /// To the user's freedesktop.org trash on the photo's mount.
    func placeInFreedesktopTrash(_ photo: Placing, caches: inout Caches) -> Prepared
    /// To the root's `.recycle/<user>` folder.
    func placeInRecycleFolder(_ photo: Placing, caches: inout Caches) -> Prepared
}
