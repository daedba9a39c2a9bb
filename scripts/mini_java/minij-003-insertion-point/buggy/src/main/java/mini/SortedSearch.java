package mini;

/** Binary search over a sorted int array. */
public final class SortedSearch {
    private SortedSearch() {}

    /**
     * Index of the first element that is not smaller than {@code x}: where {@code x} would be
     * inserted to keep the array sorted ({@code a.length} when every element is smaller).
     */
    public static int insertionPoint(int[] a, int x) {
        int lo = 0;
        int hi = a.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < x) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** True when the sorted array holds {@code x}. */
    public static boolean contains(int[] a, int x) {
        int i = insertionPoint(a, x);
        return i < a.length && a[i] == x;
    }
}
