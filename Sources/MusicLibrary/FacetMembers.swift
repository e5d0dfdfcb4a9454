/// The tracks of each id of one facet (artist, album or genre) of a ``Library``, grouped:
/// which tracks share an artist, say, without a pass over the library. Built once per
/// scan beside ``LibraryFacets``.
///
/// Stored as one array of positions sorted by id (library order within an id) and where
/// each id's run starts: 4 bytes a track and 4 an id.
package struct FacetMembers: Sendable {
    /// Per id, and one past the last: where its run of ``positions`` starts.
    private let starts: [Int32]
    /// Every track position, grouped by id in id order.
    private let positions: [Int32]

    /// Groups the positions of `column` (an id per track position) for ids below `idCount`.
    package init(column: [Int32], idCount: Int) {
        var counts = [Int32](repeating: 0, count: idCount + 1)
        for id in column { counts[Int(id) + 1] += 1 }
        for index in 1..<counts.count { counts[index] += counts[index - 1] }
        starts = counts
        var next = counts
        var grouped = [Int32](repeating: 0, count: column.count)
        for (position, id) in column.enumerated() {
            grouped[Int(next[Int(id)])] = Int32(position)
            next[Int(id)] += 1
        }
        positions = grouped
    }

    /// How many tracks have the id.
    package func count(of id: Int32) -> Int {
        Int(starts[Int(id) + 1] - starts[Int(id)])
    }

    /// The positions of the tracks with the id, in library order.
    package func positions(of id: Int32) -> ArraySlice<Int32> {
        positions[Int(starts[Int(id)])..<Int(starts[Int(id) + 1])]
    }
}
