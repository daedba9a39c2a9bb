package mini;

import static org.junit.Assert.assertEquals;

import java.util.Arrays;
import java.util.List;
import org.junit.Test;

public class PaginateTest {
    private static final List<Integer> ITEMS = Arrays.asList(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);

    @Test
    public void firstPage() {
        assertEquals(Arrays.asList(0, 1, 2), Paginate.page(ITEMS, 1, 3));
    }

    @Test
    public void pageCount() {
        assertEquals(4, Paginate.pageCount(10, 3));
    }
}
