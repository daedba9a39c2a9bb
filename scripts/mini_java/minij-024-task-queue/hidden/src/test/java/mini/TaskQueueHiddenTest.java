package mini;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import java.util.Arrays;
import org.junit.Test;

public class TaskQueueHiddenTest {
    @Test
    public void extremePriorities() {
        TaskQueue q = new TaskQueue();
        q.add(new Task("low", -5));
        q.add(new Task("urgent", Integer.MAX_VALUE));
        q.add(new Task("never", Integer.MIN_VALUE));
        q.add(new Task("normal", 0));
        assertEquals(Arrays.asList("urgent", "normal", "low", "never"), q.order());
    }

    @Test
    public void equalPrioritiesKeepInsertionOrder() {
        TaskQueue q = new TaskQueue();
        q.add(new Task("a", 1));
        q.add(new Task("b", 2));
        q.add(new Task("c", 1));
        q.add(new Task("d", 2));
        assertEquals(Arrays.asList("b", "d", "a", "c"), q.order());
    }

    @Test
    public void pollTakesTheHighest() {
        TaskQueue q = new TaskQueue();
        q.add(new Task("neg", -2_000_000_000));
        q.add(new Task("pos", 2_000_000_000));
        q.add(new Task("zero", 0));
        assertEquals("pos", q.poll().name());
        assertEquals("zero", q.poll().name());
        assertEquals("neg", q.poll().name());
        assertNull(q.poll());
    }
}
