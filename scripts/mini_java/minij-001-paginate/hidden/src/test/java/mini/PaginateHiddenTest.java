package mini;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.Test;

public class PaginateHiddenTest {
    private static final List<Integer> ITEMS = Arrays.asList(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);

    @Test
    public void middlePage() {
        assertEquals(Arrays.asList(3, 4, 5), Paginate.page(ITEMS, 2, 3));
    }

    @Test
    public void lastPartialPage() {
        assertEquals(Arrays.asList(9), Paginate.page(ITEMS, 4, 3));
    }

    @Test
    public void pastTheEndIsEmpty() {
        assertTrue(Paginate.page(ITEMS, 5, 3).isEmpty());
    }

    @Test
    public void pagesCoverEverythingOnce() {
        List<Integer> seen = new ArrayList<>();
        int pages = Paginate.pageCount(ITEMS.size(), 4);
        for (int p = 1; p <= pages; p++) {
            seen.addAll(Paginate.page(ITEMS, p, 4));
        }
        assertEquals(ITEMS, seen);
    }

    @Test
    public void badArguments() {
        assertThrows(IllegalArgumentException.class, () -> Paginate.page(ITEMS, 0, 3));
        assertThrows(IllegalArgumentException.class, () -> Paginate.page(ITEMS, 1, 0));
    }

    @Test
    public void pageCountEdges() {
        assertEquals(0, Paginate.pageCount(0, 3));
        assertEquals(3, Paginate.pageCount(9, 3));
    }
}
