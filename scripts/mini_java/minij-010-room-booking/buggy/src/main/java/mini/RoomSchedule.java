package mini;

import java.util.ArrayList;
import java.util.List;

/** The meetings booked in one room. */
public final class RoomSchedule {
    private final List<Meeting> booked = new ArrayList<>();

    /** Books {@code meeting} unless it clashes with a booked one; returns whether it was booked. */
    public boolean book(Meeting meeting) {
        for (Meeting other : booked) {
            if (meeting.overlaps(other)) {
                return false;
            }
        }
        booked.add(meeting);
        return true;
    }

    public List<String> titles() {
        List<String> titles = new ArrayList<>();
        for (Meeting m : booked) {
            titles.add(m.title());
        }
        return titles;
    }
}
