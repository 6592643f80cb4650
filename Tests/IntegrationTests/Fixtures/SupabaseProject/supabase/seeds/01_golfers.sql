insert into public.golfer (name, invalid) values ('Ada', false), ('Grace', false);
