package mini;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class SortedSearchTest {
    @Test
    public void betweenElements() {
        assertEquals(2, SortedSearch.insertionPoint(new int[] {1, 3, 5}, 4));
    }

    @Test
    public void afterTheLastElement() {
        assertEquals(3, SortedSearch.insertionPoint(new int[] {1, 3, 5}, 6));
    }
}
