insert into public.score (golfer_id, strokes)
select id, 72 from public.golfer where name = 'Ada';
