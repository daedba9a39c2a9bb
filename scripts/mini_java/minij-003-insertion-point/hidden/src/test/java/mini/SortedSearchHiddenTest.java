package mini;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class SortedSearchHiddenTest {
    @Test
    public void emptyArray() {
        assertEquals(0, SortedSearch.insertionPoint(new int[0], 7));
        assertFalse(SortedSearch.contains(new int[0], 7));
    }

    @Test
    public void singleElement() {
        assertEquals(0, SortedSearch.insertionPoint(new int[] {5}, 5));
        assertEquals(1, SortedSearch.insertionPoint(new int[] {5}, 9));
        assertEquals(0, SortedSearch.insertionPoint(new int[] {5}, 1));
    }

    @Test
    public void firstOfEqualElements() {
        assertEquals(1, SortedSearch.insertionPoint(new int[] {1, 2, 2, 2, 3}, 2));
    }

    @Test
    public void everyPositionOfALongerArray() {
        int[] a = {10, 20, 30, 40, 50, 60};
        for (int i = 0; i <= a.length; i++) {
            assertEquals(i, SortedSearch.insertionPoint(a, i * 10 + 5));
        }
    }

    @Test
    public void membership() {
        int[] a = {2, 4, 8, 16};
        assertTrue(SortedSearch.contains(a, 16));
        assertTrue(SortedSearch.contains(a, 2));
        assertFalse(SortedSearch.contains(a, 17));
        assertFalse(SortedSearch.contains(a, 5));
    }
}
